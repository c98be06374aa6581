"""The closed-book protocol: Clarifier, User Answerer and Rewriter, each seeing only what it may see."""
