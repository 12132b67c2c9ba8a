"""perfwiki: raw benchmark output in, comparable published pages out."""

__version__ = "0.1.0"
