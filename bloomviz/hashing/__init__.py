"""hashing"""
