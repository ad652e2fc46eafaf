# Board modules: everything that touches hardware. The app receives one board object.
from micropython import const

READ_MOST = const(32)  # bytes a board's serial_read takes at most: the ESP32 drains its stdin a
#                        byte at a time (~11 us a byte), and a read's step with 60 bytes came
#                        to 2.0-2.2 ms at R high (issue 13); the link reads the rest in its
#                        next step
