"""shogun"""
