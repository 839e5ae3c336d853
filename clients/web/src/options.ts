// The new-game form's options, generated from ListGames: one control per
// OptionDescriptor (BOOL a checkbox, INT a number or a select of its allowed
// values, ENUM a select, SET checkboxes), its description as help text, and
// the values of the chosen preset as defaults. A new option of any game
// appears here without a change to the page.

import { create } from "@bufbuild/protobuf";

import {
  OptionSettingSchema,
  OptionType,
  type GameDescriptor,
  type OptionDescriptor,
  type OptionSetting,
  type OptionValue,
  type PresetDescriptor,
} from "../../typescript/src/gen/croupier/v1/options_pb.js";

import { h } from "./dom.js";

/** The value an option has under a preset: the preset's setting, else the catalogue default. */
export function presetValue(
  option: OptionDescriptor,
  preset: PresetDescriptor | undefined,
): OptionValue | undefined {
  const setting = preset?.settings.find((s) => s.name === option.name);
  return setting?.value ?? option.defaultValue;
}

type Kind = OptionValue["kind"];

function sameKind(a: Kind | undefined, b: Kind): boolean {
  if (a === undefined || a.case !== b.case) return false;
  if (a.case === "setValue" && b.case === "setValue") {
    return [...a.value.names].sort().join(",") === [...b.value.names].sort().join(",");
  }
  return a.value === b.value;
}

export interface OptionsForm {
  element: HTMLElement;
  /** The options whose value differs from the preset's: what NewGame needs. */
  changed(): OptionSetting[];
}

export function optionsForm(
  game: GameDescriptor,
  preset: PresetDescriptor | undefined,
): OptionsForm {
  const element = h("div", { class: "options", "data-testid": "options" });
  const readers: { option: OptionDescriptor; read: () => Kind }[] = [];
  for (const option of game.options) {
    const initial = presetValue(option, preset)?.kind;
    const id = `opt-${option.name}`;
    let control: HTMLElement;
    let read: () => Kind;
    switch (option.type) {
      case OptionType.BOOL: {
        const box = h("input", {
          type: "checkbox",
          id,
          name: option.name,
          checked: initial?.case === "boolValue" && initial.value,
        });
        control = box;
        read = () => ({ case: "boolValue", value: box.checked });
        break;
      }
      case OptionType.INT: {
        const current = initial?.case === "intValue" ? initial.value : option.minValue;
        if (option.allowedValues.length > 0) {
          const select = h(
            "select",
            { id, name: option.name },
            option.allowedValues.map((v) => h("option", { value: v }, v)),
          );
          select.value = String(current);
          control = select;
          read = () => ({ case: "intValue", value: BigInt(select.value) });
        } else {
          const input = h("input", {
            type: "number",
            id,
            name: option.name,
            min: String(option.minValue),
            max: String(option.maxValue),
            step: "1",
            value: String(current),
          });
          control = input;
          read = () => ({
            case: "intValue",
            value: BigInt(input.value === "" ? current : input.value),
          });
        }
        break;
      }
      case OptionType.ENUM: {
        const select = h(
          "select",
          { id, name: option.name },
          option.allowedValues.map((v) => h("option", { value: v }, v)),
        );
        select.value =
          initial?.case === "enumValue" ? initial.value : (option.allowedValues[0] ?? "");
        control = select;
        read = () => ({ case: "enumValue", value: select.value });
        break;
      }
      case OptionType.SET: {
        const chosen = new Set(initial?.case === "setValue" ? initial.value.names : []);
        const boxes = option.allowedValues.map((v) =>
          h("input", { type: "checkbox", name: option.name, value: v, checked: chosen.has(v) }),
        );
        control = h(
          "span",
          { class: "set", id },
          boxes.map((box, i) =>
            h("label", { class: "set-item" }, box, option.allowedValues[i] ?? ""),
          ),
        );
        read = () => ({
          case: "setValue",
          value: {
            $typeName: "croupier.v1.NameList",
            names: boxes.filter((b) => b.checked).map((b) => b.value),
          },
        });
        break;
      }
      default:
        continue;
    }
    readers.push({ option, read });
    element.append(
      h(
        "div",
        { class: "option", "data-option": option.name, title: option.ruleReference },
        h("label", { for: id, class: "option-name" }, option.name),
        control,
        h(
          "div",
          { class: "help" },
          option.description,
          option.ruleReference ? h("span", { class: "ref" }, ` (${option.ruleReference})`) : null,
        ),
      ),
    );
  }
  return {
    element,
    changed: () =>
      readers
        .map(({ option, read }) => ({ option, value: read() }))
        .filter(({ option, value }) => !sameKind(presetValue(option, preset)?.kind, value))
        .map(({ option, value }) =>
          create(OptionSettingSchema, { name: option.name, value: { kind: value } }),
        ),
  };
}
