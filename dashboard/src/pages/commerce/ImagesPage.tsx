import { Button, Card, FileInput, Group, Image, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { unwrap } from '../../api/client';
import { ConfirmButton } from '../../components/ConfirmButton';
import { attempt } from '../../components/FormModal';
import { PageHeader } from '../../components/Page';
import { EmptyState, FormError, QueryView } from '../../components/states';
import { useMutation, useQuery } from '../../lib/hooks';
import { useSession } from '../../session';
import type { PageDefinition } from '../types';

export function ImagesPage() {
  const { api } = useSession();
  const query = useQuery((api) => unwrap(api.GET('/images')));
  const [file, setFile] = useState<File | null>(null);
  const upload = useMutation((api, image: File) =>
    unwrap(
      api.POST('/images', {
        body: { image: image as unknown as string },
        bodySerializer: (b) => {
          const form = new FormData();
          form.append('image', (b as unknown as { image: File }).image);
          return form;
        },
      }),
    ),
  );
  return (
    <Stack>
      <PageHeader title="Images" description="PNG, JPEG, GIF or WebP, at most 5 MB. Attach them to products and offers in their edit forms." />
      <Card withBorder>
        <Group align="flex-end">
          <FileInput label="Image file" accept="image/png,image/jpeg,image/gif,image/webp" value={file} onChange={setFile} clearable w={320} />
          <Button
            disabled={!file}
            loading={upload.running}
            onClick={async () => {
              if (file && (await upload.run(file))) {
                setFile(null);
                query.reload();
              }
            }}
          >
            Upload
          </Button>
        </Group>
        <FormError error={upload.error} />
      </Card>
      <QueryView query={query}>
        {(images) =>
          images.length === 0 ? (
            <EmptyState title="No images yet" />
          ) : (
            <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
              {images.map((image) => (
                <Card key={image._id} withBorder padding="sm">
                  <Card.Section>
                    <Image src={image.url} alt={image.filename} h={140} fit="contain" />
                  </Card.Section>
                  <Text size="sm" mt="xs" truncate>
                    {image.filename}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {Math.round(image.size / 1024)} KB
                  </Text>
                  <ConfirmButton
                    mt="xs"
                    title="Delete image"
                    message={`Delete ${image.filename}?`}
                    confirmLabel="Delete"
                    aria-label={`Delete ${image.filename}`}
                    onConfirm={() =>
                      attempt(async () => {
                        await unwrap(api.DELETE('/images/{id}', { params: { path: { id: image._id } } }));
                        query.reload();
                      })
                    }
                  >
                    Delete
                  </ConfirmButton>
                </Card>
              ))}
            </SimpleGrid>
          )
        }
      </QueryView>
    </Stack>
  );
}

export const imagesPage: PageDefinition = { path: 'images', title: 'Images', area: 'products', group: 'Products', element: <ImagesPage /> };
