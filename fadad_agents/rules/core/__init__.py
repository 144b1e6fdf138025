"""The shared core of the rules kernel: what every rule system builds on.

Dice and their exact distributions, the trait ladder, opposed and unopposed actions and
initiative, the FUDGE wound track, the FADAD damage number (personal blows and FADAD ship
hits), the 2d10 morale roll (Spelljammer crews and rapid resolution), and the option base
with the ``engine.*`` section. Imports nothing else of the package.
"""
