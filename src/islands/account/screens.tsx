// Every account-flow screen in one chunk, loaded on demand (lazy.tsx).
export { AccountPanel } from "./AccountPanel.tsx";
export { ActivationScreen } from "./ActivationScreen.tsx";
export { CancelEssentialsScreen, CancelTrialScreen } from "./CancelScreens.tsx";
export { ForgotPasswordScreen } from "./ForgotPasswordScreen.tsx";
export { InviteScreen } from "./InviteScreen.tsx";
export { ResetPasswordScreen } from "./ResetPasswordScreen.tsx";
