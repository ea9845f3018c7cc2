print("momentum")
