"""A small TypeScript interface the doubt tests share: `start(cb?)` may be new or a change of
`start(): void;`, and the section goes on to rewrite the one-line doc comment and the `stop()`
signature below it (`API_EXPECTED`). `with_ticks` puts a backtick span in the comment line, for the
code-span tests."""

API = ("interface Api {\n    /**\n     * Start the thing.\n     */\n    start(): void;\n\n"
       "    /** Stop the thing and free its buffers. */\n    stop(): void;\n}\n\ninterface Other {\n    x: number;\n}\n")
API_SNIPPET = ("// ... existing code ...\n     * Start the thing.\n     */\n    start(cb?: () => void): void;\n\n"
               "    /**\n     * Stop the thing and free its buffers.\n     *\n     * @param cb called when stopped\n     */\n"
               "    stop(cb?: () => void): void;\n// ... existing code ...\n")
API_EXPECTED = ("interface Api {\n    /**\n     * Start the thing.\n     */\n    start(cb?: () => void): void;\n\n"
                "    /**\n     * Stop the thing and free its buffers.\n     *\n     * @param cb called when stopped\n     */\n"
                "    stop(cb?: () => void): void;\n}\n\ninterface Other {\n    x: number;\n}\n")


def with_ticks(text: str) -> str:
    """The text with "the thing" as "the `thing`" in the `stop()` comment."""
    return text.replace("Stop the thing", "Stop the `thing`")
