"""`python -m croupier_fuzz` (`make fuzz`): see the package docstring."""

from __future__ import annotations

import sys

from croupier_fuzz.cli import main

sys.exit(main())
