"""The book's own machinery: figure style, Korean reader-facing text, display helpers, exercises."""
from .style import FONT_NAME, use_book_style

__all__ = ["FONT_NAME", "use_book_style"]
