"""The model, the one fold with every handler, and the corrected view."""
