#!/usr/bin/python3
"""Reads the QR code `badgectl web link` printed (half-block characters in the file named, a
full block for two light modules, as a dark terminal shows it) as a camera would: drawn into a
picture, 8 pixels a module, and decoded by zbarimg. Prints what the code says.
"""
import subprocess
import sys
import tempfile

from PIL import Image

with open(sys.argv[1], encoding="utf-8") as printed:
    rows = [line for line in printed.read().split("\n") if any(c in line for c in "█▀▄")]
width = max(len(row) for row in rows)
picture = Image.new("L", (width + 8, 2 * len(rows) + 8), 0)
for y, row in enumerate(rows):
    for x, cell in enumerate(row):
        picture.putpixel((x + 4, 2 * y + 4), 255 if cell in "█▀" else 0)
        picture.putpixel((x + 4, 2 * y + 5), 255 if cell in "█▄" else 0)
picture = picture.resize((picture.width * 8, picture.height * 8), Image.NEAREST)
with tempfile.NamedTemporaryFile(suffix=".png") as file:
    picture.save(file.name)
    decoded = subprocess.run(["zbarimg", "-q", "--raw", file.name], capture_output=True, text=True)
print(decoded.stdout.strip())
sys.exit(decoded.returncode)
