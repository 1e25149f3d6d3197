/* test-control: the harness's messenger catches a deliberate violation.
 *
 * If this test passes, "zero validation errors" in the other tests means
 * something: the layer is loaded and the persistent messenger (created after
 * the instance, not only chained into vkCreateInstance) counts errors.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "harness.h"

static void
test_control_violation_is_counted (void)
{
  PscTestHarness *h = psc_test_harness_new (TRUE);
  VkBufferCreateInfo bad = {
    .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
    .size = 0,                   /* VUID-VkBufferCreateInfo-size-00912 */
    .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
    .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
  };
  VkBuffer buffer = VK_NULL_HANDLE;

  psc_test_harness_assert_clean (h);

  h->quiet = TRUE;
  (void) vkCreateBuffer (h->device, &bad, NULL, &buffer);
  h->quiet = FALSE;
  g_assert_cmpuint (psc_test_harness_error_count (h), >=, 1);
  g_test_message ("the messenger counted %u error(s) for vkCreateBuffer with size 0",
                  psc_test_harness_error_count (h));
  if (buffer != VK_NULL_HANDLE)
    vkDestroyBuffer (h->device, buffer, NULL);

  psc_test_harness_reset_errors (h);
  psc_test_harness_finish (h);
}

static void
test_control_clean_device (void)
{
  PscTestHarness *h = psc_test_harness_new (FALSE);

  /* A device with dynamic rendering off comes up clean too. */
  psc_test_harness_finish (h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vulkan/control/violation-is-counted", test_control_violation_is_counted);
  g_test_add_func ("/vulkan/control/clean-device", test_control_clean_device);
  return g_test_run ();
}
