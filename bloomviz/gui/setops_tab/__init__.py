"""setops_tab"""
