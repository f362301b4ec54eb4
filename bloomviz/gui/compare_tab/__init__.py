"""compare_tab"""
