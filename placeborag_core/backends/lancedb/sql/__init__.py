"""LanceDB's filter language: the SQL ``WHERE`` expressions lance plans with DataFusion.

``lexer`` (sqlparser-rs's tokens), ``parser`` (its expression grammar and errors, building a
``syntax`` tree) and ``planner`` (lance's checks in lance's order, then a three-valued evaluator;
its stages live in ``checks``, ``optimizer``, ``evaluators`` and ``masks``, sharing a ``scope``).
"""
