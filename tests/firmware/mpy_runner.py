# Runs firmware unit tests on the real MicroPython interpreter (unix port): every test_* function
# of the module named on the command line. Prints one line per test: "PASS name" or
# "FAIL name: error"; exits 1 when any failed. Invoked by tests/firmware/test_on_micropython.py.
import gc
import sys


def main():
    name = sys.argv[1]
    module = __import__(name)
    failed = 0
    for attr in sorted(dir(module)):
        if not attr.startswith("test_"):
            continue
        fn = getattr(module, attr)
        gc.collect()  # each test starts from the same heap, not the last one's garbage
        try:
            fn()
            print("PASS", attr)
        except Exception as exc:  # noqa: BLE001 - report every failure, keep going
            failed += 1
            print("FAIL %s: %s: %s" % (attr, type(exc).__name__, exc))
            sys.print_exception(exc)
    sys.exit(1 if failed else 0)


main()
