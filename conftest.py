"""pytest set-up for the whole repository: notebook outputs are compared as the reader sees them.

``tests/nbval_numbers.py`` refines nbval's comparison of stored notebook outputs
(numbers at the precision the page prints them, or within a stated band).
"""
pytest_plugins = ["tests.nbval_numbers"]
