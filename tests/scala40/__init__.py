"""Scala 40 tests: a package, so that module names may repeat those of other test folders."""
