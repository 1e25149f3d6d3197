#!/usr/bin/python3
# PyGObject tests of PscDrawList (issue 12, draw sorting): add draws, sort,
# read the orders as lists. No device needed.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import math
import random
import sys
import unittest

try:
    import gi
    gi.require_version('GObject', '2.0')
    gi.require_version('Psc', '1')
    from gi.repository import GObject, Psc
except (ImportError, ValueError) as e:
    print(f'cannot import Psc 1 through PyGObject: {e}', file=sys.stderr)
    sys.exit(1)

SEED = 12012


def depth_rank(d):
    # The documented depth order: NaN farther than +inf, -0.0 == +0.0.
    return (1, 0.0) if math.isnan(d) else (0, d + 0.0)


class DrawListTest(unittest.TestCase):
    def test_orders(self):
        draws = Psc.DrawList.new(8)
        self.assertEqual(draws.get_capacity(), 8)
        self.assertTrue(draws.add_opaque(2, 0, 1.0, 10))
        self.assertTrue(draws.add_opaque(1, 5, 3.0, 11))
        self.assertTrue(draws.add_opaque(1, 5, 2.0, 12))
        self.assertTrue(draws.add_opaque(1, 4, 9.0, 13))
        self.assertTrue(draws.add_transparent(1.0, 20))
        self.assertTrue(draws.add_transparent(float('nan'), 21))
        self.assertTrue(draws.add_transparent(5.0, 22))
        self.assertTrue(draws.add_transparent(1.0, 23))
        self.assertFalse(draws.is_sorted())
        draws.sort()
        self.assertTrue(draws.is_sorted())
        self.assertEqual(draws.get_opaque_order(), [13, 12, 11, 10])
        # NaN first (farther than anything), then back to front, ties by
        # submission.
        self.assertEqual(draws.get_transparent_order(), [21, 22, 20, 23])
        self.assertEqual((draws.get_n_opaque(), draws.get_n_transparent()), (4, 4))

    def test_full_and_clear(self):
        draws = Psc.DrawList.new(2)
        self.assertTrue(draws.add_transparent(0.0, 1))
        self.assertTrue(draws.add_opaque(0, 0, 0.0, 2))
        self.assertFalse(draws.add_transparent(0.0, 3))
        self.assertEqual(draws.get_dropped(), 1)
        draws.clear()
        self.assertEqual(draws.get_dropped(), 0)
        draws.sort()
        self.assertEqual(draws.get_opaque_order(), [])
        self.assertEqual(draws.get_transparent_order(), [])

    def test_random(self):
        rng = random.Random(SEED)
        print(f'seed {SEED}', file=sys.stderr)
        n = 3000
        draws = Psc.DrawList.new(n)
        opaque, transparent = [], []
        specials = [float('nan'), float('inf'), -float('inf'), 0.0, -0.0]
        for i in range(n):
            depth = rng.choice(specials) if rng.random() < 0.1 else float(rng.randint(-50, 50)) / 4
            if rng.random() < 0.5:
                key = (rng.choice([0, 1, 2**63, 2**64 - 1, rng.getrandbits(64)]), rng.randint(0, 3))
                self.assertTrue(draws.add_opaque(key[0], key[1], depth, i))
                opaque.append((key[0], key[1], depth_rank(depth), i))
            else:
                self.assertTrue(draws.add_transparent(depth, i))
                transparent.append((depth_rank(depth), i))
        draws.sort()
        # Python's sort is stable: equal keys keep submission order.
        expected_o = [d[3] for d in sorted(opaque, key=lambda d: d[:3])]
        expected_t = [d[1] for d in sorted(transparent, key=lambda d: d[0], reverse=True)]
        # sorted(reverse=True) keeps equal elements in their original order.
        self.assertEqual(draws.get_opaque_order(), expected_o)
        self.assertEqual(draws.get_transparent_order(), expected_t)

    def test_boxed(self):
        gtype = Psc.DrawList.new(4).__gtype__
        self.assertEqual(gtype.name, 'PscDrawList')
        self.assertTrue(gtype.is_a(GObject.TYPE_BOXED))


if __name__ == '__main__':
    unittest.main()
