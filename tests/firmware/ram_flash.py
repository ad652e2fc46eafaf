# A littlefs file system (os.VfsLfs2, as on the ESP32) on a RAM block device, for the tests of
# the real board's flash (tests only, on the MicroPython unix port).
import os


class RamFlash:
    """A block device in RAM for littlefs; `budget` block writes/erases, then a power cut.

    Kept as one small bytearray a block, copied a byte at a time: no large contiguous block for
    the test heap to find (a 10 KB one failed on a fragmented 256K heap) and nothing allocated
    when littlefs reads with the heap locked (a finaliser closing a file)."""

    def __init__(self, blocks=40, size=256, data=None):
        self.size = size
        self.blocks = blocks
        if data:
            self.data = [bytearray(b) for b in data]
        else:
            self.data = [bytearray(size) for _ in range(blocks)]
        self.budget = -1

    def _spend(self):
        if self.budget == 0:
            raise OSError(5)  # EIO: the power is gone, nothing more reaches the flash
        if self.budget > 0:
            self.budget -= 1

    def readblocks(self, n, buf, off=0):
        size = self.size
        a = n * size + off
        data = self.data
        for i in range(len(buf)):
            buf[i] = data[(a + i) // size][(a + i) % size]

    def writeblocks(self, n, buf, off=None):
        self._spend()
        size = self.size
        a = n * size + (off or 0)
        data = self.data
        for i in range(len(buf)):
            data[(a + i) // size][(a + i) % size] = buf[i]

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return self.size
        if op == 6:
            self._spend()
            return 0
        return None


_MOUNT = "/shogun_test_flash"


def mount(dev, mkfs=False):
    if mkfs:
        os.VfsLfs2.mkfs(dev)
    os.mount(os.VfsLfs2(dev), _MOUNT)
    cwd = os.getcwd()
    os.chdir(_MOUNT)
    return cwd


def umount(cwd):
    os.chdir(cwd)
    os.umount(_MOUNT)
