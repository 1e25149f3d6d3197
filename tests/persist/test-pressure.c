/* test-pressure.c: the pressure-stall reader that holds prewarm back
 * (psc-pressure.c): the "some avg10" share of the kernel's text, and every
 * malformed form refused (so a strange file means no pressure, never a
 * stalled prewarm).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "psc-pressure.h"

static void
test_parse (void)
{
  double v = -1;

  g_assert_true (psc_pressure_parse ("some avg10=12.50 avg60=3.00 avg300=0.91 total=263243700\n"
                                     "full avg10=0.00 avg60=0.01 avg300=0.57 total=187781499\n",
                                     &v));
  g_assert_cmpfloat (v, ==, 12.5);
  g_assert_true (psc_pressure_parse ("some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", &v));
  g_assert_cmpfloat (v, ==, 0.0);
  g_assert_false (psc_pressure_parse ("", &v));
  g_assert_false (psc_pressure_parse (NULL, &v));
  g_assert_false (psc_pressure_parse ("full avg10=5.00\n", &v));
  g_assert_false (psc_pressure_parse ("some avg10=x\n", &v));
  g_assert_false (psc_pressure_parse ("some avg10=-1\n", &v));
  g_assert_false (psc_pressure_parse ("some avg10=101\n", &v));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pressure/parse", test_parse);
  return g_test_run ();
}
