"""items"""
