import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { Guard, Shell } from './layout/Shell';
import { PAGES } from './pages/registry';
import { SignInPage } from './pages/sign-in/SignInPage';
import { NotFoundPage } from './pages/NotFoundPage';

const router = createBrowserRouter(
  [
    { path: '/sign-in', element: <SignInPage /> },
    {
      path: '/',
      element: <Shell pages={PAGES} />,
      children: [
        ...PAGES.map((page) =>
          page.path === '' ? { index: true, element: <Guard page={page} pages={PAGES} /> } : { path: page.path, element: <Guard page={page} pages={PAGES} /> },
        ),
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ],
  { basename: import.meta.env.BASE_URL.replace(/\/$/, '') },
);

export function App() {
  return <RouterProvider router={router} />;
}
