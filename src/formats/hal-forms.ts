/**
 * @module HAL-FORMS (`application/prs.hal-forms+json`, https://rwcbook.github.io/hal-forms/): the HAL
 * translation plus `_templates`, one template per control, with the control's fields as `properties`.
 */
import type { Control, Field, FieldType } from '../hypermedia/model.js';
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
  return {
    ...(control.title && { title: control.title }),
    method: control.method,
    target: control.href,
    ...(control.contentType && { contentType: control.contentType }),
    properties: control.fields.map(property),
  };
}

function property(field: Field) {
  const options = optionsOf(field);
  return {
    name: field.name,
    ...(field.title && { prompt: field.title }),
    type: inputTypes[field.type],
    required: field.required,
    ...(field.value !== undefined && { value: field.value }),
    ...(field.min !== undefined && { min: field.min }),
    ...(field.max !== undefined && { max: field.max }),
    ...(field.maxLength !== undefined && { maxLength: field.maxLength }),
    ...(options && { options }),
  };
}

/** The spec's `options`: choices by reference (`link`) or by value (`inline`); one value is chosen. */
function optionsOf(field: Field) {
  const cardinality = { minItems: field.required ? 1 : 0, maxItems: 1 };
  if (field.options) {
    const { href, templated, promptField, valueField } = field.options;
    return { link: { href, ...(templated && { templated: true }) }, promptField, valueField, ...cardinality };
  }
  if (field.enum) return { inline: [...field.enum], ...cardinality };
  return undefined;
}

export const halFormsFormat = createHalFormat({
  contentType: 'application/prs.hal-forms+json; charset=utf-8',
  mediaTypes: ['application/prs.hal-forms+json'],
  templates: templatesOf,
});
