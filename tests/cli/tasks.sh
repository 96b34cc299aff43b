#!/bin/sh
# sworn task: list and show the built-in tasks outside a workspace, init
# copies one into a workspace (refused twice, --force), the workspace's
# edited copy wins, a broken one fails with its file:line, JSON forms.
. "$(dirname "$0")/lib.sh"

# Outside a workspace: the four built-in tasks.
mkdir -p "$T/nows"
run 0 "$SWORN" -C "$T/nows" task list
lines "$T/out" 4
has "$T/out" "declaration      Fact declaration (28 U.S.C. § 1746) from the record  [built-in]"
has "$T/out" "motion-section"
has "$T/out" "demand-letter"
has "$T/out" "chronology"

run 0 "$SWORN" -C "$T/nows" task list --json
eq "task names" "$(jq -r '[.tasks[].name] | join(",")' "$T/out")" \
	"chronology,declaration,demand-letter,motion-section"
eq "all built in" "$(jq '[.tasks[] | select(.builtin and (.workspace | not))] | length' "$T/out")" 4

# show: steps in order with role, template, inputs, evidence, output,
# fan-out and join, then review and revise.
run 0 "$SWORN" -C "$T/nows" task show motion-section
has "$T/out" "source: built-in"
has "$T/out" "   1. outline  role reasoner, template outline.md"
has "$T/out" "   2. section  role drafter, template section.md"
has "$T/out" "fan-out    one instance per item of outline.sections"
has "$T/out" "reads      matter, task, brief, step.outline, item.title, item.kind, item.points, evidence"
has "$T/out" "   3. draft  join of 'section' (no model), separated by \\n\\n"
has "$T/out" "review  role reviewer, template review.md"
has "$T/out" "revise  role reasoner, template revise.md"
has "$T/out" "output     json (schema), 2048 tokens at most"

run 0 "$SWORN" -C "$T/nows" task show motion-section --json
eq "steps" "$(jq -r '[.steps[] | .name + ":" + .kind] | join(",")' "$T/out")" \
	"outline:model,section:model,draft:join"
eq "fan-out" "$(jq -r '.steps[1] | .fan_out + "." + .fan_key' "$T/out")" "outline.sections"
eq "outline schema" "$(jq -r '.steps[0].schema.properties.sections.type' "$T/out")" "array"
eq "review kinds" "$(jq -r '.review.schema.properties.findings.items.properties.kind.enum | join(",")' "$T/out")" \
	"unsupported_assertion,missing_citation,weak_argument,internal_contradiction"
eq "sha256" "$(jq -r '.sha256 | length' "$T/out")" 64
BUILTIN_SHA=$(jq -r .sha256 "$T/out")

run 0 "$SWORN" -C "$T/nows" task show declaration
has "$T/out" "evidence   queries from brief; 16 pages at most"
run 2 "$SWORN" -C "$T/nows" task show nope
has "$T/err" "sworn: no task 'nope' (sworn task list shows them)"
run 2 "$SWORN" -C "$T/nows" task show ../etc
has "$T/err" "bad task name '../etc'"

# init needs a workspace.
run 2 "$SWORN" -C "$T/nows" task init declaration
has "$T/err" "sworn: task init needs a workspace"
[ ! -e "$T/nows/tasks" ] || { echo "FAIL: init outside a workspace wrote tasks/"; failures=$((failures + 1)); }
run 2 "$SWORN" -C "$T/nows" task frobnicate
has "$T/err" "usage: sworn task list"

new_workspace
run 0 "$SWORN" -C "$T/ws" task init motion-section
has "$T/out" "copied task 'motion-section' to $T/ws/tasks/motion-section"
eq "dir mode" "$(stat -c %a "$T/ws/tasks/motion-section")" 755
eq "file mode" "$(stat -c %a "$T/ws/tasks/motion-section/section.md")" 644
eq "files" "$(ls "$T/ws/tasks/motion-section" | tr '\n' ' ')" \
	"outline.md outline.schema.json review.md review.schema.json revise.md section.md system.md task.ini "
run 2 "$SWORN" -C "$T/ws" task init motion-section
has "$T/err" "tasks/motion-section exists: edit it, or give --force"

# The unedited copy is the built-in task (same hash), from the workspace.
run 0 "$SWORN" -C "$T/ws/matters" task show motion-section --json
eq "copy hash" "$(jq -r .sha256 "$T/out")" "$BUILTIN_SHA"
eq "copy source" "$(jq -r .source "$T/out")" "$T/ws/tasks/motion-section"

# An edit wins; list says the workspace's overrides the built-in one.
sed 's/^title = .*/title = Our statement of facts/' "$T/ws/tasks/motion-section/task.ini" >"$T/ini"
cp "$T/ini" "$T/ws/tasks/motion-section/task.ini"
run 0 "$SWORN" -C "$T/ws" task list
has "$T/out" "motion-section   Our statement of facts  [workspace (overrides built-in)]"
run 0 "$SWORN" -C "$T/ws" task show motion-section --json
eq "edited title" "$(jq -r .title "$T/out")" "Our statement of facts"
[ "$(jq -r .sha256 "$T/out")" != "$BUILTIN_SHA" ] || { echo "FAIL: edited task kept the hash"; failures=$((failures + 1)); }

# A mistake in the copy fails with its file and line, and did-you-mean.
printf '[step "outline"]\nschem = outline.schema.json\n' >>"$T/ws/tasks/motion-section/task.ini"
run 2 "$SWORN" -C "$T/ws" task show motion-section
lines "$T/err" 1
has "$T/err" "task.ini:"
has "$T/err" "unknown key 'schem' in [step \"outline\"]: did you mean schema?"

# A placeholder the step cannot fill, named with its template and line.
cp "$T/ini" "$T/ws/tasks/motion-section/task.ini"
printf 'Also see {{findings}}.\n' >>"$T/ws/tasks/motion-section/outline.md"
run 2 "$SWORN" -C "$T/ws" task show motion-section
has "$T/err" "step outline: outline.md:"
has "$T/err" "{{findings}} is not a placeholder here"

# --force puts the built-in files back.
run 0 "$SWORN" -C "$T/ws" task init motion-section --force
run 0 "$SWORN" -C "$T/ws" task show motion-section --json
eq "restored hash" "$(jq -r .sha256 "$T/out")" "$BUILTIN_SHA"
run 2 "$SWORN" -C "$T/ws" task init nope
has "$T/err" "no built-in task 'nope'"

done_testing
