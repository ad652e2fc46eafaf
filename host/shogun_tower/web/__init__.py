"""The live board page: a small local web server and the page it serves."""
