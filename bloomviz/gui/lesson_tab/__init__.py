"""lesson_tab"""
