async def capture_learning(
    memory: MemoryProvider,
    topic: str,
    insight: str,
    context: str
):
    """Capture learning for future reference."""
    key = f"learning:{topic.replace(' ', '-')}"

    await memory.set(
        key=key,
        value=insight,
        scope=Scope.GLOBAL,
        tags=["learning", topic],
        metadata={"context": context}
    )
