"""Staff accounts fit for a console that mints keys (docs/design.md#staff): a second factor
for every staff member (TOTP, with one-time recovery codes, through django-otp), asked for after
the password and set up at first sign-in; sessions that end after idle minutes and when the
member's devices change. What staff do is recorded by ``audit``.
"""
