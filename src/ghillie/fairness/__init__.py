"""Verifiable fairness: commitments, rolls no single party can steer, the signed
hash-chained log, and the audit (docs/fairness.md)."""
