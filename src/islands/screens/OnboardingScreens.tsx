// Segmentation steps (what-for, what-role, about-you) keep their answers locally as JSON and, when
// signed in, on the account (segmentationInfo, spec 3.1; stores/segmentation.ts); the redirect
// pages send the person on: template-redirect to the editor's template path only
// (domain/account/template-redirect.ts), segmentation-info-redirect to the first step or on.
import { useStore } from "@nanostores/react";
import { type SubmitEvent, useEffect, useState } from "react";
import { templateTarget } from "../../domain/account/template-redirect.ts";
import { hrefFor, type ScreenId } from "../../domain/checkout/screens.ts";
import { $query, navigate } from "../../stores/router.ts";
import {
  $segmentationInfo,
  $segmentationSaving,
  saveSegmentationStep,
} from "../../stores/segmentation.ts";
import { DashboardLink } from "../chrome/HubLinks.tsx";
import { Busy, Frame } from "./Frame.tsx";

type Step = {
  field: "purpose" | "role" | "about";
  choices: string[];
  next: ScreenId | null;
};

const SEGMENTATION_STEPS: Partial<Record<ScreenId, Step>> = {
  "what-for": { field: "purpose", choices: ["Work", "School", "Personal"], next: "what-role" },
  "what-role": {
    field: "role",
    choices: ["Marketing", "Teacher", "Student", "Creator", "Other"],
    next: "about-you",
  },
  "about-you": {
    field: "about",
    choices: ["Just me", "2 to 10 people", "More than 10"],
    next: null,
  },
};

/** Where the steps end: the checked redirect-back address, else the plans of the segment. */
function afterSegmentation(redirect: string | null, segment: string | undefined): string {
  return redirect ?? hrefFor("plans", segment ? { tier: segment } : undefined);
}

export function SegmentationScreen({ title, screen }: { title: string; screen: ScreenId }) {
  const info = useStore($segmentationInfo);
  const saving = useStore($segmentationSaving);
  const query = useStore($query);
  const step = SEGMENTATION_STEPS[screen];
  const [missing, setMissing] = useState(false);
  if (!step) return <Frame title={title} />;
  const chosen = info[step.field];
  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get(step.field);
    if (typeof value !== "string" || !step.choices.includes(value)) {
      setMissing(true);
      return;
    }
    await saveSegmentationStep(step.field, value);
    navigate(
      step.next
        ? hrefFor(step.next, { redirect: query.redirect })
        : afterSegmentation(query.redirect, $segmentationInfo.get().segment),
    );
  };
  return (
    <Frame title={title}>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <fieldset
          className="choices"
          aria-describedby={missing ? "segmentation-missing" : undefined}
        >
          <legend className="vh">{title}</legend>
          {step.choices.map((choice) => (
            <label key={choice}>
              <input
                type="radio"
                name={step.field}
                value={choice}
                defaultChecked={chosen === choice}
                onChange={() => setMissing(false)}
              />{" "}
              {choice}
            </label>
          ))}
        </fieldset>
        {missing && (
          <p id="segmentation-missing" className="field-error" role="alert">
            Choose one answer to continue.
          </p>
        )}
        <button type="submit" className="btn" disabled={saving}>
          Continue
        </button>
        {saving && <Busy label="Saving your answer…" />}
      </form>
    </Frame>
  );
}

export function TemplateRedirectScreen({ title }: { title: string }) {
  const query = useStore($query);
  const target = templateTarget(query.templateId);
  useEffect(() => {
    // avoidRedirecting (spec 2.4) keeps the person here with the link instead.
    if (target && !query.avoidRedirecting) navigate(target, { replace: true });
  }, [target, query.avoidRedirecting]);
  if (!target) {
    return (
      <Frame title={title}>
        <p role="alert">
          This template link is not valid. Open the editor and choose the template there.
        </p>
        <DashboardLink className="btn">Open the editor</DashboardLink>
      </Frame>
    );
  }
  return (
    <Frame title={title}>
      {!query.avoidRedirecting && <Busy label="Opening your template in the editor…" />}
      <a className="btn" href={target}>
        Open the template
      </a>
    </Frame>
  );
}

export function SegmentationRedirectScreen({ title }: { title: string }) {
  const query = useStore($query);
  const info = useStore($segmentationInfo);
  // Someone who already answered goes on; anyone else starts the steps.
  const target = info.segment
    ? afterSegmentation(query.redirect, info.segment)
    : hrefFor("what-for", { redirect: query.redirect });
  useEffect(() => {
    if (!query.avoidRedirecting) navigate(target, { replace: true });
  }, [target, query.avoidRedirecting]);
  return (
    <Frame title={title}>
      <p>A few questions help us set up your account.</p>
      <a className="btn" href={target}>
        {info.segment ? "Continue" : "Start"}
      </a>
    </Frame>
  );
}
