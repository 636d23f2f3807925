"""Bad-input tests (issue 28); the property-based suite's helpers live beside them."""
