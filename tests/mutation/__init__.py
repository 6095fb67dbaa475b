"""Mutation testing of the conformance cases: deliberately broken copies of the reference
engine (mutants), and a runner that says which cases catch each one.

A case is worth what it catches. ``python -m tests.mutation run`` runs the cases against every
mutant; ``python -m tests.mutation compare OLD.json NEW.json`` fails when rewritten cases no
longer kill a mutant the old ones killed.
"""
