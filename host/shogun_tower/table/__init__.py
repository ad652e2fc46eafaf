"""The table-side game assistant: leads a whole game of Shogun with the tower."""
