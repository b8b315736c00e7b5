async def load_session_context(
    memory: MemoryProvider,
    session_id: str
) -> Dict[str, Any]:
    """Load relevant context for session."""
    # Get recent project activity
    recent_project = await memory.query(
        pattern="*",
        scope=Scope.PROJECT,
        limit=10
    )

    # Get relevant global learnings
    recent_global = await memory.query(
        pattern="learning:*",
        scope=Scope.GLOBAL,
        limit=5
    )

    return {
        "recent_project": [e.value for e in recent_project],
        "relevant_learnings": [e.value for e in recent_global]
    }
