"""Questions about the user rather than about what they mean: "Are you from Kenya?", "您是本地旅客吗？" ask
who the user is, which the intent does not say; "Are you asking about ...?", "您是指 ...？" ask what they mean."""

from __future__ import annotations

import re

# What "Are you ...?", "Do you ...?" asks when it asks what the user means, not about the user
_YOU_MEANING = "asking|referring|thinking|talking|interested|looking|after|mean|meaning|want|wanting|need|focus"
# The user as the subject of a verb of their own ("Are you from Kenya?", "Do you live in Canada?"), not of
# asking or meaning ("Are you asking about ...?")
TO_USER_AS_SUBJECT = re.compile(rf"\b(?:are|do|did|were|have|will) you\s+(?!(?:\w+ly\s+)?(?:{_YOU_MEANING}))", re.IGNORECASE)
# A question about the user rather than what they mean: "Are you currently living there?", "Are you a regular
# Costco shopper?", "您是本地旅客吗？", "您家的房子..."; not "Are you asking about ...", "您是指 ...".
ABOUT_THE_USER = re.compile(rf"\b(?:are|do|did|were|have|will) you\s+(?!(?:\w+ly\s+)?(?:{_YOU_MEANING}|including|counting|"
                            r"considering|excluding|only|just))|\byour\b|[您你](?:是(?!指|说|问|想|要|按)|家|的(?!意思)|孩子|子女|父母|配偶|爱人|名下|本人|自己)",
                            re.IGNORECASE)
# Any word addressed to the user
TO_USER = re.compile(r"\b(?:you|your|you're|you've|you'd)\b|您|你", re.IGNORECASE)
