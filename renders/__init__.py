"""Pure renders: engine views to PNG bytes with Pillow (no discord import). See issue #3."""
