"""Sagi Kedmi's toy Bloom filter ("Bloom Filters for the Perplexed", 2017), reconstructed from the article's
listings for bloomviz's tests: an independent implementation to compare the ``kedmi-sha256`` scheme with.
Only the imports (which the article leaves out) are added; the functions are as printed."""

import math
from hashlib import sha256

from bitarray import bitarray


def optimal_km(n, p):
  ln2 = math.log(2)
  lnp = math.log(p)
  k = -lnp/ln2
  m = -n*lnp/((ln2)**2)
  return int(math.ceil(k)), int(math.ceil(m))


def h_i(i, m, s):
  return int(sha256(bytes([i]) + s).hexdigest(), 16) % m


class bloom_filter:
  def __init__(self, m, k, h=h_i):
    self.m = m # length of bit array
    self.k = k # number of hash functions
    self.h = h # hash function
    self.bits = bitarray(self.m) # the actual bit store

  def add(self, s):
    for i in range(self.k):
      self.bits[self.h(i, self.m, s)] = 1

  def contains(self, s):
    for i in range(self.k):
      if self.bits[self.h(i, self.m, s)] == 0:
        return False
    return True # all bits were set
