"""`python -m shogun_tower.cli`: the same as the `shogun-tower` command."""

import sys

from shogun_tower.cli import main

sys.exit(main())
