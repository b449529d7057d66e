import { Field } from '@/components/field';

/** A segment's own fields, shared by the create and edit forms. */
export function SegmentFields({
  values,
  errors,
}: {
  values: Partial<Record<'name' | 'language' | 'audience' | 'description', string>>;
  errors: Record<string, string>;
}) {
  return (
    <>
      <div className="row">
        <Field name="name" label="Name" type="text" defaultValue={values.name} error={errors.name} />
        <Field name="language" label="Language (optional)" type="text" placeholder="en" defaultValue={values.language} error={errors.language} />
      </div>
      <Field
        name="audience"
        label="Audience (optional)"
        type="text"
        placeholder="Who is in it, in words"
        defaultValue={values.audience}
        error={errors.audience}
      />
      <Field name="description" label="Description (optional)" type="text" defaultValue={values.description} error={errors.description} />
    </>
  );
}
