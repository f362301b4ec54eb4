"""explorer_tab"""
