"""Prompt templates and demonstrations for the planning, selection and response chains."""
