"""The model, from the outside: one client and the models it can talk to.

`client` is the router client (probe, one structured call, retries of that call);
`answer` turns a model's text into the JSON a task asked for; `local` runs an
embedded llama.cpp server for one run (`llm.gguf`); `tiny` is the canned demo model.
Task modules never import this package: the run hands them answers.
"""
