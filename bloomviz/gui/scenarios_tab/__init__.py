"""scenarios_tab"""
