print("badgectl")
