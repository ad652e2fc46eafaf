"""The table-side assistant: leads a whole game of Shogun with the tower (seats, the console,
the throws, the journal, undo, the phones and the page), and the pieces the other games' tables
share (the console, the equipment, the terminal)."""
