"""101 tests: a package, so that module names (test_validation) may repeat
those of other test folders."""
