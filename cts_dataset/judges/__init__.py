"""Coverage judges that label each golden nugget full / partial / none for a search output."""
