/**
 * @module HAL-FORMS (`application/prs.hal-forms+json`, https://rwcbook.github.io/hal-forms/): the HAL
 * translation plus `_templates`, one template per control, with the control's fields as `properties`.
 */
import { type Control, type Field, type FieldType, isInline } from '../hypermedia/model.js';
import { createHalFormat } from './hal.js';

/** HAL-FORMS property types are HTML input types. */
const inputTypes: Record<FieldType, string> = {
  string: 'text',
  integer: 'number',
  // Not in the spec's list, which follows HTML's; `checkbox` is the HTML input type for a boolean.
  boolean: 'checkbox',
  date: 'date',
};

/**
 * Templates keyed by control name. The spec keys the sole template `default`, and clients that read
 * only `default` take the first one, so the first control appears under both names.
 */
function templatesOf(controls: Control[]): Record<string, unknown> | undefined {
  const [first] = controls;
  if (!first) return undefined;
  const templates: Record<string, unknown> = { default: template(first) };
  for (const control of controls) templates[control.name] = template(control);
  return templates;
}

function template(control: Control) {
  const out: Record<string, unknown> = {};
  if (control.title) out.title = control.title;
  out.method = control.method;
  out.target = control.href;
  if (control.contentType) out.contentType = control.contentType;
  out.properties = control.fields.map(property);
  return out;
}

function property(field: Field) {
  const out: Record<string, unknown> = { name: field.name };
  if (field.title) out.prompt = field.title;
  out.type = inputTypes[field.type];
  out.required = field.required;
  if (field.value !== undefined) out.value = field.value;
  if (field.min !== undefined) out.min = field.min;
  if (field.max !== undefined) out.max = field.max;
  if (field.maxLength !== undefined) out.maxLength = field.maxLength;
  // Beyond the spec, which has no list of free values nor identifiers: the identifier a text must be,
  // HTML's `multiple` (the value is a JSON array of them), the most it takes, and that null clears it.
  if (field.format) out.format = field.format;
  if (field.multiple) out.multiple = true;
  if (field.maxItems !== undefined) out.maxItems = field.maxItems;
  if (field.nullable) out.nullable = true;
  const options = optionsOf(field);
  if (options) out.options = options;
  return out;
}

/** The spec's `options`: choices by reference (`link`) or by value (`inline`); one value is chosen. */
function optionsOf(field: Field) {
  const minItems = field.required ? 1 : 0;
  // Labelled choices are the spec's inline `{prompt, value}` pairs.
  if (field.options && isInline(field.options)) {
    return { inline: field.options.map(({ prompt, value }) => ({ prompt, value })), minItems, maxItems: 1 };
  }
  if (field.options) {
    const { href, templated, promptField, valueField } = field.options;
    const link: Record<string, unknown> = { href };
    if (templated) link.templated = true;
    return { link, promptField, valueField, minItems, maxItems: 1 };
  }
  if (field.enum) return { inline: [...field.enum], minItems, maxItems: 1 };
  return undefined;
}

export const halFormsFormat = createHalFormat({
  contentType: 'application/prs.hal-forms+json; charset=utf-8',
  mediaTypes: ['application/prs.hal-forms+json'],
  templates: templatesOf,
});
