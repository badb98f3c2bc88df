print("badged")
