"""fused.py: an option whose added lines the section across a marker already shows is offered
again with the two sections joined (the marker removed, only the rest added)."""

from __future__ import annotations

from fastapply.evaluation.retry import choose
from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.explain import explain
from fastapply.merge.refuse.fused import fused
from fastapply.merge.refuse.reading import read_input
from fastapply.merge.refuse.refusal import Edit, Option
from fastapply.merge.refuse.revise import revise

ORIGINAL = """\
internal sealed class RegistryPipelineComponentBuilder
{
    public PipelineComponent CreateComponent()
    {
        return PipelineComponentFactory.CreateReloadable(
            new ReloadableComponent.Entry(
                builder.BuildPipelineComponent(),
                context.DisposeCallbacks),
            context.ReloadTokens,
            context.DisposeCallbacks,
            builder.TelemetryListener);
    }

    private record Builder(
        Func<PipelineComponent> ComponentFactory,
        List<CancellationToken> ReloadTokens,
        List<Action> DisposeCallbacks,
        TelemetryListener? Listener);
}
"""
RECORD = ("    private record Builder(Func<PipelineComponent> ComponentFactory, List<CancellationToken> ReloadTokens, "
          "TelemetryListener? Listener);")
SNIPPET = f"""\
// ... existing code ...
            context.ReloadTokens,
            builder.TelemetryListener);
// ... existing code ...
{RECORD}
// ... existing code ...
"""
EXPECTED = ORIGINAL.replace("            context.DisposeCallbacks,\n", "").split("    private record")[0] + RECORD + "\n}\n"


def test_an_insert_the_section_above_already_begins_is_joined_to_it():
    inp = read_input(ORIGINAL, SNIPPET)
    option = Option("pin", (Edit("insert", at=5, text="\n".join(ORIGINAL.splitlines()[10:13]), original_line=11),
                            Edit("insert", at=6, text="}", original_line=19)))
    (made,) = fused(inp, (option,))
    assert made.edits[0] == Edit("remove", start=4, end=4)  # the marker between the two sections
    assert made.edits[1] == Edit("insert", at=5, text="    }\n", original_line=12)  # only what section 1 lacks
    assert made.edits[2:] == option.edits[1:]
    assert fused(inp, (Option("no overlap", (Edit("insert", at=6, text="}", original_line=19),)),)) == ()


def test_the_refusal_offers_the_joined_change_and_the_retry_writes_the_intent():
    sentence = (f"section 2 (starting `{RECORD.strip()[:47]}...`) could not be found in the original after the "
                "previous section (no line of it occurs there); include a few unchanged lines from the original around "
                "the change")
    refusal = explain(ORIGINAL, SNIPPET, sentence, language="csharp")
    option = choose(refusal, SNIPPET, EXPECTED, ORIGINAL)
    assert option is not None and "so the two sections meet" in option.says
    assert instant_merge(ORIGINAL, revise(SNIPPET, option), language="csharp").text == EXPECTED
