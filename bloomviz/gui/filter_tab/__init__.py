"""filter_tab"""
