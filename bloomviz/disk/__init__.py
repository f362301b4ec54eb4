"""The disk, handled safely: refuse what is not a regular file before reading it (a FIFO, a device), read with a
bound, and save atomically (a crash leaves the old file or the new one, never half of one)."""
