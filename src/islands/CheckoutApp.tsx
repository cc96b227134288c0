// The checkout app: one island on every page under /cart (docs/decisions/0016). Until start-up
// has finished it shows only a loader that keeps its space (spec 2.1: nothing is shown before);
// then the chrome of spec 2.6 and the screen of the current route. All state lives in the stores;
// this component renders and dispatches.

import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { $app, initApp } from "../stores/app.ts";
import { $navigation } from "../stores/guard.ts";
import { $location, $query, $route } from "../stores/router.ts";
import { $browserSupported, $host, closeFrame, startCheckout } from "../stores/start.ts";
import { $user } from "../stores/user.ts";
import { Footer } from "./chrome/Footer.tsx";
import { Header } from "./chrome/Header.tsx";
import { LoginToolbar, type SignUpMode } from "./chrome/LoginToolbar.tsx";
import { Problem } from "./screens/Frame.tsx";
import { AppNotice, preloadScreen, ScreenView } from "./screens/ScreenView.tsx";
import { useLoadedStore } from "./use-loaded-store.ts";

function Loader() {
  return (
    <div className="app-loader" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>Loading the checkout…</span>
    </div>
  );
}

export default function CheckoutApp() {
  // The end of start-up shows the whole app: rendered in slices (use-loaded-store.ts).
  const app = useLoadedStore($app);
  const route = useStore($route);
  const user = useStore($user);
  const host = useStore($host);
  const supported = useStore($browserSupported);
  const navigation = useStore($navigation);
  useEffect(() => {
    const stop = startCheckout(window);
    preloadScreen($route.get(), $query.get().p === "trial");
    return stop;
  }, []);
  if (!app.loaded) {
    return (
      <main id="main" className="cart-main">
        <Loader />
      </main>
    );
  }
  const onSignIn = route.kind === "screen" && (route.screen === "auth" || route.screen === "login");
  const mode: SignUpMode = user.isAuth
    ? "none"
    : host === "extension"
      ? "extension"
      : onSignIn
        ? "plans"
        : "plain";
  return (
    <div className={`cart-app host-${host}`}>
      {host === "standalone" ? (
        <Header
          key={JSON.stringify(route)}
          isAuth={user.isAuth}
          userName={user.userName || user.userEmail}
        />
      ) : (
        <LoginToolbar mode={mode} />
      )}
      {host === "hub" && (
        <button type="button" className="close-frame" onClick={closeFrame}>
          Close
        </button>
      )}
      <main id="main" className="cart-main">
        {app.initFailure && (
          <Problem
            failure={app.initFailure}
            retry={() =>
              initApp.run({
                search: $location.get().search,
                referrer: document.referrer,
              })
            }
          />
        )}
        {!supported ? (
          <AppNotice kind="unsupported" />
        ) : navigation.kind === "stop" ? (
          <AppNotice kind="blocked" />
        ) : (
          <ScreenView key={JSON.stringify(route)} route={route} />
        )}
      </main>
      <Footer nowMs={Date.now()} />
    </div>
  );
}
