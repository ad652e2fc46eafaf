# Board modules: everything that touches hardware. The app receives one board object.
